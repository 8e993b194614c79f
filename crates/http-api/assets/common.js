// Shared by the desktop and the mobile page. Every value from a file or the server is put in
// the page as text (textContent), never as HTML.
"use strict";

const api = {
  async json(method, path, body) {
    const options = { method, headers: {} };
    if (body !== undefined) {
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(body);
    }
    const response = await fetch(path, options);
    let data = null;
    try { data = await response.json(); } catch (_) { data = null; }
    if (response.status === 401 && api.onSignedOut) api.onSignedOut();
    if (!response.ok) {
      const message = data && data.error ? data.error : "请求失败（HTTP " + response.status + "）";
      throw new Error(message);
    }
    return data;
  },

  // Uploads one file with progress; resolves with the stored name, rejects with the server's
  // error text.
  upload(path, file, onProgress) {
    return new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open("POST", path);
      xhr.upload.onprogress = (e) => { if (e.lengthComputable) onProgress(e.loaded / e.total); };
      xhr.onload = () => {
        let data = null;
        try { data = JSON.parse(xhr.responseText); } catch (_) { data = null; }
        if (xhr.status === 200 && data && data.ok) resolve(data.filename);
        else reject(new Error(data && data.error ? data.error : "上传失败（HTTP " + xhr.status + "）"));
      };
      xhr.onerror = () => reject(new Error("网络错误，上传失败"));
      const form = new FormData();
      form.append("file", file, file.name);
      xhr.send(form);
    });
  },
};

function el(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  if (className) node.className = className;
  return node;
}

function sizeText(bytes) {
  if (bytes >= 1048576) return (bytes / 1048576).toFixed(1) + " MB";
  if (bytes >= 1024) return Math.round(bytes / 1024) + " KB";
  return bytes + " B";
}

// One row of an upload in progress: name, a progress bar, then the outcome.
function uploadRow(list, file) {
  const row = el("li", null, "upload");
  row.appendChild(el("span", file.name, "name"));
  const bar = el("progress");
  bar.max = 1; bar.value = 0;
  bar.setAttribute("aria-label", "上传进度：" + file.name);
  row.appendChild(bar);
  const status = el("span", "上传中…", "status");
  row.appendChild(status);
  list.prepend(row);
  return {
    progress(fraction) { bar.value = fraction; },
    done(name) { bar.value = 1; status.textContent = "已上传：" + name; row.classList.add("ok"); },
    failed(message) { status.textContent = message; row.classList.add("failed"); },
  };
}

async function uploadAll(path, files, list) {
  const stored = [];
  for (const file of files) {
    const row = uploadRow(list, file);
    try {
      const name = await api.upload(path, file, row.progress);
      row.done(name);
      stored.push(name);
    } catch (error) {
      row.failed(error.message);
    }
  }
  return stored;
}
