// The desktop page: session, uploads, the phone's QR code, configuration, processing with live
// progress, the agent's questions, the portal's captcha, the editable table (with what the
// claims ledger knows of its invoices) and the submission's outcome; and the history of claims.
"use strict";

const COLUMNS = ["序号", "发票号码", "开票日期", "项目名称", "规格型号", "价税合计", "销售方名称",
  "人员姓名", "刷卡日期", "公务卡号", "刷卡金额", "备注", "工号"];
const CONFIG_FIELDS = ["username", "password", "default_name", "default_card_no",
  "default_person_id", "consumable_storage"];
const AGENT_STATES = { idle: "未开始", extracting: "正在提取和校验", awaiting_supplement: "等待补充信息",
  ready: "信息完整", submitting: "正在提交", done: "已完成", error: "出错" };
const FILE_STATUS = { processing: "处理中", done: "完成", cached: "完成（缓存）", error: "失败" };
// The ledger's findings on a table row: the first two block a submission, the last warns.
const LEDGER_FINDINGS = { claimed: "", same_file: "相同文件", near_duplicate: "疑似重复" };
const CLAIM_KINDS = { general: "日常", travel: "差旅" };

const $ = (id) => document.getElementById(id);
let sessionId = null;
// Whether the session came from the address (a reload), and the document's download path as
// the last result gave it (none for a travel-only session or a failed document).
let restored = false;
let docUrl = null;
/// The printed claim of the last result that said: {url, preview} or null.
let packageInfo = null;
let table = { csv_filename: "", fields: COLUMNS, rows: [] };
let flagged = {};
// What the claims ledger said of each row as loaded; a row keeps its marks when others go.
let ledgerMarks = new WeakMap();
let stream = null;

async function startSession() {
  const fromUrl = new URLSearchParams(location.hash.slice(1)).get("s");
  if (fromUrl) {
    try {
      await api.json("GET", "/api/files/" + encodeURIComponent(fromUrl));
      sessionId = fromUrl;
      restored = true;
    } catch (_) { sessionId = null; }
  }
  if (!sessionId) {
    sessionId = (await api.json("POST", "/api/session")).session_id;
    history.replaceState(null, "", "#s=" + sessionId);
  }
  $("session-id").textContent = sessionId;
  await showPhoneLink();
}

// The server says where a phone can reach this session (the machine's LAN address when
// this page was opened on 127.0.0.1); the QR code encodes the same address. With sign-in on,
// the link carries an upload token that expires: it is renewed before it does, or by a click.
let phoneRenewal = null;
async function showPhoneLink() {
  $("qr").src = "/api/qr/" + sessionId + "?r=" + Date.now();
  const phone = await api.json("GET", "/api/mobile-url/" + sessionId).catch(() => null);
  if (!phone) return;
  $("mobile-link").textContent = phone.url;
  $("mobile-link").href = phone.url;
  $("mobile-hint").textContent = phone.note;
  $("mobile-hint").hidden = false;
  $("mobile-hint").className = phone.reachable ? "muted" : "error";
  $("qr-expiry").hidden = !phone.expires_in;
  if (phone.expires_in) {
    const until = new Date(Date.now() + phone.expires_in * 1000);
    $("qr-expiry-text").textContent = "二维码 " + until.toLocaleTimeString("zh-CN", { hour: "2-digit", minute: "2-digit" }) + " 前有效";
    clearTimeout(phoneRenewal);
    phoneRenewal = setTimeout(showPhoneLink, Math.max(30, phone.expires_in - 60) * 1000);
  }
}

// Who the page belongs to: signed in, the name and a way out; sign-in off on a network
// address, a warning; a finance user may void claims.
let me = { mode: "none", signed_in: false, finance: true };
async function showUser() {
  me = await api.json("GET", "/api/auth/me");
  if (me.mode !== "none" && !me.signed_in) {
    location.assign("/login");
    return false;
  }
  $("user-line").hidden = !me.signed_in;
  $("user-name").textContent = me.display_name || me.username;
  $("void-by-field").hidden = me.signed_in;
  $("export-audit").hidden = !me.finance;
  $("auth-warning").hidden = !me.warning;
  $("auth-warning").textContent = me.warning || "";
  return true;
}

// ---- files ----

function renderFiles(listing) {
  const list = $("files");
  list.replaceChildren();
  $("files-empty").hidden = listing.files.length > 0;
  for (const file of listing.files) {
    const item = el("li");
    const url = "/api/download/" + sessionId + "/" + encodeURIComponent(file.name);
    if (file.type === "image") {
      const img = el("img");
      img.src = url;
      img.alt = "预览：" + file.name;
      img.loading = "lazy";
      item.appendChild(img);
    } else {
      item.appendChild(el("span", "PDF", "doc-icon"));
    }
    const link = el("a", file.name);
    link.href = url;
    item.appendChild(link);
    item.appendChild(el("span", sizeText(file.size), "muted"));
    list.appendChild(item);
  }
}

async function refreshFiles() {
  try { renderFiles(await api.json("GET", "/api/files/" + sessionId)); } catch (_) { /* next poll */ }
}

async function uploadFiles(files) {
  await uploadAll("/api/upload/" + sessionId, files, $("uploads"));
  await refreshFiles();
}

// ---- configuration ----

async function loadConfig() {
  const config = await api.json("GET", "/api/config/" + sessionId);
  for (const name of CONFIG_FIELDS) {
    const input = $("config").elements[name];
    if (name !== "password") input.value = config[name] || "";
  }
}

function configBody() {
  const body = {};
  for (const name of CONFIG_FIELDS) {
    const value = $("config").elements[name].value;
    if (name === "password" && value === "") continue;
    body[name] = value;
  }
  return body;
}

// ---- progress ----

function logLine(text, className) {
  const line = el("li", text, className);
  $("log").appendChild(line);
  line.scrollIntoView({ block: "nearest" });
}

function showFileProgress(event) {
  const list = $("file-progress");
  let row = Array.from(list.children).find((r) => r.dataset.file === event.file);
  if (!row) {
    row = el("li");
    row.dataset.file = event.file;
    list.appendChild(row);
  }
  const parts = [event.file, FILE_STATUS[event.status] || event.status];
  if (event.summary) parts.push(event.summary);
  if (event.error) parts.push(event.error);
  row.textContent = parts.join(" · ");
  row.className = event.status === "error" ? "failed" : event.status === "processing" ? "" : "ok";
}

function agentText(event) {
  switch (event.type) {
    case "agent_state_change": return "状态：" + (AGENT_STATES[event.state] || event.state) + "。" + event.message;
    case "agent_extract_status": return "校验：" + event.message;
    case "agent_ready": return "信息完整：" + event.message;
    case "agent_request_supplement": return "需要补充：" + event.suggestion;
    case "agent_supplement_received": return "已收到补充文件：" + event.files.join("、");
    case "agent_force_submit": return event.message;
    case "agent_error": return "出错：" + event.message;
    case "agent_max_rounds": return event.message;
    default: return JSON.stringify(event);
  }
}

function onEvent(event) {
  if (event.type === "file_progress") return showFileProgress(event);
  if (event.type === "log") {
    return logLine([event.time ? event.time.slice(11, 19) : "", event.module, event.message]
      .filter(Boolean).join(" "), event.level === "ERROR" ? "failed" : "");
  }
  if (event.type === "llm_stream") {
    $("llm-box").hidden = false;
    if (event.text) $("llm").textContent += event.text;
    if (event.phase === "error") logLine("语言模型出错：" + (event.text || ""), "failed");
    return;
  }
  if (event.type === "submit_challenge") {
    // A replayed event of the question shown keeps the countdown it has.
    if (!challenge || challenge.id !== event.id) showChallenge(event);
    return;
  }
  if (event.type === "submit_challenge_closed") {
    if (challenge && challenge.id === event.id) hideChallenge();
    if (event.outcome === "expired") logLine("验证码输入已超时。", "failed");
    return;
  }
  if (event.type === "done") { hideChallenge(); return onDone(event.result); }
  if (event.type.startsWith("agent_")) {
    if (event.state) $("agent-state").textContent = AGENT_STATES[event.state] || event.state;
    if (event.type === "agent_request_supplement") showRequest(event);
    return logLine(agentText(event), event.type === "agent_error" ? "failed" : "agent");
  }
}

function follow() {
  if (stream) stream.close();
  $("progress").hidden = false;
  stream = new EventSource("/api/logs/" + sessionId);
  // After a reconnect, a question asked meanwhile is asked for once.
  let opened = false;
  stream.onopen = () => { if (opened) checkChallenge(); opened = true; };
  stream.onmessage = (message) => {
    let event;
    try { event = JSON.parse(message.data); } catch (_) { return; }
    onEvent(event);
    if (event.type === "done") { stream.close(); stream = null; }
  };
}

async function start(path, body) {
  $("run-error").hidden = true;
  $("result-box").hidden = true;
  $("file-progress").replaceChildren();
  $("log").replaceChildren();
  $("llm").textContent = "";
  try {
    await api.json("POST", path + sessionId, body);
    follow();
  } catch (error) {
    $("run-error").textContent = error.message;
    $("run-error").hidden = false;
  }
}

// ---- the portal's question (a captcha) ----

// The question shown: its id and when it expires (client clock).
let challenge = null;
let challengeTimer = null;

/// Shows the question the submission waits on; for the one already shown, only corrects the
/// countdown (the server's GET knows better than a replayed event).
function showChallenge(event) {
  const fresh = !challenge || challenge.id !== event.id;
  challenge = { id: event.id, deadline: Date.now() + event.expires_in * 1000, event };
  if (fresh) {
    const image = $("challenge-image");
    image.hidden = !event.image;
    if (event.image) image.src = event.image; else image.removeAttribute("src");
    $("challenge-prompt").textContent = event.prompt;
    $("challenge-message").textContent = event.message
      ? "门户提示：" + event.message.replace(/[。.！!，,]+$/, "") + "，请重新输入" : "";
    $("challenge-message").hidden = !event.message;
    $("challenge-error").hidden = true;
    $("challenge-answer").value = "";
    $("challenge-answer").disabled = false;
    $("challenge-send").disabled = false;
    $("challenge").hidden = false;
    $("challenge-answer").focus();
    logLine("等待输入验证码…" + (event.attempt > 1 ? "（第 " + event.attempt + "/" + event.attempts + " 次）" : ""), "agent");
  }
  clearInterval(challengeTimer);
  challengeTimer = setInterval(tickChallenge, 1000);
  tickChallenge();
}

function tickChallenge() {
  if (!challenge) return;
  const left = Math.max(0, Math.round((challenge.deadline - Date.now()) / 1000));
  if (left === 0) return hideChallenge();
  const { attempt, attempts } = challenge.event;
  $("challenge-countdown").textContent = "剩余 " + left + " 秒" + (attempts > 1 ? " · 第 " + attempt + "/" + attempts + " 次" : "");
}

function hideChallenge() {
  challenge = null;
  clearInterval(challengeTimer);
  $("challenge").hidden = true;
}

/// Asks once whether a question waits (a reload or a reconnect missed its event); true if so.
async function checkChallenge() {
  const waiting = await api.json("GET", "/api/submit-challenge/" + sessionId).catch(() => null);
  if (waiting && waiting.challenge) showChallenge(waiting.challenge);
  return Boolean(waiting && waiting.challenge);
}

async function answerChallenge(e) {
  e.preventDefault();
  if (!challenge) return;
  const id = challenge.id;
  const input = $("challenge-answer");
  $("challenge-error").hidden = true;
  input.disabled = true;
  $("challenge-send").disabled = true;
  try {
    await api.json("POST", "/api/submit-challenge/" + sessionId, { id, answer: input.value });
    if (challenge && challenge.id === id) hideChallenge();
    logLine("已提交验证码。");
  } catch (error) {
    $("challenge-error").textContent = error.message;
    $("challenge-error").hidden = false;
  }
  if (challenge && challenge.id === id) {
    input.disabled = false;
    $("challenge-send").disabled = false;
    input.focus();
  }
}

// ---- outcome ----

function showRequest(event) {
  const box = $("agent-request");
  box.replaceChildren();
  const lists = [["缺少的信息", event.missing_fields], ["缺少的材料", event.missing_materials],
    ["需要核对", event.semantic_issues]];
  for (const [title, items] of lists) {
    if (!items || items.length === 0) continue;
    box.appendChild(el("h3", title));
    const list = el("ul");
    for (const item of items) list.appendChild(el("li", item));
    box.appendChild(list);
  }
  box.appendChild(el("p", event.suggestion, "suggestion"));
  $("agent-box").hidden = false;
}

function showResult(lines, failed) {
  const box = $("result");
  box.replaceChildren();
  for (const line of lines) {
    if (typeof line === "string") box.appendChild(el("p", line, failed ? "error" : ""));
    else box.appendChild(line);
  }
  $("result-box").hidden = false;
}

function downloadLink(text, url) {
  const link = el("a", text);
  link.href = url;
  const p = el("p");
  p.appendChild(link);
  return p;
}

async function onDone(result) {
  const lines = [];
  if (result.ok === false) {
    lines.push("失败：" + (result.error || result.submit_error || "未知错误"));
  }
  if (result.invoice_count !== undefined) {
    lines.push("共 " + result.invoice_count + " 张发票（差旅 " + result.travel_count + "，一般 " + result.general_count + "），用时 " + result.elapsed);
  }
  if (result.waiting_for_supplement) lines.push("第 " + result.round + " 轮校验未通过，请在上方补充信息。");
  else $("agent-box").hidden = true;
  if (result.submit_ok === true) lines.push("已提交到财务系统，报销单号：" + (result.claim_no || "（未返回）"));
  if (result.submit_ok === false) {
    lines.push("提交失败：" + result.submit_error);
    if (result.screenshot) {
      lines.push(downloadLink("查看失败时的页面截图", "/api/download/" + sessionId + "/" + encodeURIComponent(result.screenshot)));
    }
  }
  noteDocument(result);
  if (result.doc_error) {
    lines.push((result.doc_ok === true ? "出库单已生成，" : "出库单生成失败：") + result.doc_error);
  }
  if (result.package_ok === false) lines.push("报销材料生成失败：" + result.package_error);
  // The table first: a person who starts editing when the outcome appears must not have the
  // row re-rendered under their typing.
  await loadTable();
  showResult(lines, result.ok === false || result.submit_ok === false);
}

// ---- table ----

async function loadFlags() {
  flagged = {};
  try {
    const state = await api.json("GET", "/api/agent/state/" + sessionId);
    const report = state.validation_reports[state.validation_reports.length - 1];
    for (const issue of (report && report.issues) || []) {
      if (issue.row) flagged[issue.row + "/" + issue.field] = issue.message;
    }
  } catch (_) { /* no agent run */ }
}

/// Remembers where the document is, from a result that says (process, agent, save).
function noteDocument(result) {
  if ("doc_ok" in result) docUrl = result.doc_ok === true ? result.doc_url : null;
  if ("package_ok" in result) {
    packageInfo = result.package_ok === true
      ? { url: result.package_url, preview: result.package_preview_url || null, at: Date.now() }
      : null;
  }
}

/// On a reload: a session without files has no table, so nothing is asked that would only
/// answer 404; with a table, the last run's result says whether there is a document.
async function restoreLastRun() {
  const files = await api.json("GET", "/api/files/" + sessionId).catch(() => null);
  if (!files || files.files.length === 0) return;
  if (!(await loadTable())) return;
  try {
    noteDocument(await api.json("GET", "/api/download/" + sessionId + "/result.json"));
    renderDownloads(docUrl);
  } catch (_) { /* a table saved without a run: no document known */ }
}

/// On a reload during a submission: the question it waits on shows again, and the run is
/// followed from here.
async function restoreChallenge() {
  if (await checkChallenge()) follow();
}

/// Shows the session's table; false when it has none.
async function loadTable() {
  let data;
  try { data = await api.json("GET", "/api/data/" + sessionId); } catch (_) { return false; }
  await loadFlags();
  table = { csv_filename: data.csv_filename, fields: data.fields, rows: data.data };
  ledgerMarks = new WeakMap();
  for (const mark of data.ledger || []) {
    const row = table.rows[mark.row - 1];
    if (!row) continue;
    if (!ledgerMarks.has(row)) ledgerMarks.set(row, []);
    ledgerMarks.get(row).push(mark);
  }
  $("table-file").textContent = data.csv_filename;
  renderTable();
  renderDownloads(docUrl);
  $("table-box").hidden = false;
  return true;
}

function renderTable() {
  const head = el("tr");
  for (const field of table.fields) head.appendChild(el("th", field));
  head.appendChild(el("th", "操作"));
  $("table").tHead.replaceChildren(head);
  const body = $("table").tBodies[0];
  body.replaceChildren();
  const warnings = [];
  table.rows.forEach((row, index) => {
    const tr = el("tr");
    const marks = ledgerMarks.get(row) || [];
    if (marks.length > 0) {
      tr.className = marks.some(isBlocking) ? "claimed" : "near-duplicate";
      tr.title = marks.map((mark) => mark.message).join("\n");
      for (const mark of marks) warnings.push([index + 1, mark]);
    }
    for (const field of table.fields) {
      const td = el("td");
      const input = el("input");
      input.value = row[field] || "";
      input.setAttribute("aria-label", "第 " + (index + 1) + " 行 " + field);
      input.addEventListener("input", () => { row[field] = input.value; renderTotals(); });
      const reason = flagged[(index + 1) + "/" + field];
      if (reason) { td.className = "flagged"; input.title = reason; td.appendChild(el("span", reason, "reason")); }
      td.prepend(input);
      tr.appendChild(td);
    }
    const remove = el("button", "删除");
    remove.type = "button";
    remove.setAttribute("aria-label", "删除第 " + (index + 1) + " 行");
    remove.addEventListener("click", () => { table.rows.splice(index, 1); renderTable(); });
    const td = el("td");
    td.appendChild(remove);
    tr.appendChild(td);
    body.appendChild(tr);
  });
  renderLedgerWarnings(warnings);
  renderTotals();
}

function isBlocking(mark) { return mark.finding !== "near_duplicate"; }

/// Under the table, one line per finding: 第 1 行：该发票已于 … 中报销（张三）.
function renderLedgerWarnings(warnings) {
  const list = $("ledger-warnings");
  list.replaceChildren();
  for (const [number, mark] of warnings) {
    const kind = LEDGER_FINDINGS[mark.finding];
    const text = "第 " + number + " 行" + (kind ? "（" + kind + "）" : "") + "：" + mark.message;
    list.appendChild(el("li", text, isBlocking(mark) ? "error" : "warn"));
  }
  list.hidden = warnings.length === 0;
}

function renderTotals() {
  let cents = 0;
  for (const row of table.rows) {
    const value = parseFloat(String(row["价税合计"] || "").replace(/[,¥￥]/g, ""));
    if (!Number.isNaN(value)) cents += Math.round(value * 100);
  }
  $("totals").textContent = "共 " + table.rows.length + " 行，价税合计 " + (cents / 100).toFixed(2) + " 元";
}

function renderDownloads(doc) {
  const box = $("downloads");
  box.replaceChildren(el("span", "下载："));
  const base = "/api/download/" + sessionId + "/";
  const links = [[table.csv_filename, base + encodeURIComponent(table.csv_filename)]];
  // Only a document that exists: a travel-only session has none.
  if (doc) links.push(["易耗品、出库单.doc", doc]);
  if (packageInfo) links.push(["报销材料.pdf", packageInfo.url]);
  for (const [text, url] of links) {
    const link = el("a", text);
    link.href = url;
    box.appendChild(link);
  }
  // Page 1 of the printed claim beside its link; the query makes a regenerated one show.
  if (packageInfo && packageInfo.preview) {
    const link = el("a");
    link.href = packageInfo.url;
    link.className = "package-preview";
    const img = el("img");
    img.id = "package-preview";
    img.alt = "报销材料第 1 页预览";
    img.src = packageInfo.preview + "?v=" + packageInfo.at;
    link.appendChild(img);
    box.appendChild(link);
  }
}

async function saveTable() {
  const out = $("save-result");
  out.className = "";
  out.textContent = "保存中…";
  try {
    const rows = table.rows.map((row) => {
      const copy = {};
      for (const field of table.fields) copy[field] = row[field] || "";
      return copy;
    });
    const result = await api.json("POST", "/api/save/" + sessionId, { csv_filename: table.csv_filename, data: rows });
    let text = "已保存。";
    noteDocument(result);
    if (result.doc_ok === true) text += "出库单已重新生成。" + (result.doc_error ? result.doc_error : "");
    else if (result.doc_skipped) text += "全部为差旅发票，无需出库单。";
    else if (result.doc_ok === false) text += "出库单生成失败：" + result.doc_error;
    if (result.package_ok === true) text += "报销材料已重新生成。";
    else if (result.package_ok === false) text += "报销材料生成失败：" + result.package_error;
    out.textContent = text;
    renderDownloads(docUrl);
  } catch (error) {
    out.textContent = "保存失败：" + error.message;
    out.className = "error";
  }
}

// ---- history of claims ----

// The claim whose details show (its ledger id), or null.
let openClaim = null;

/// Shows the session's work or the history; the history is asked for only when opened.
function showView(history) {
  $("work").hidden = history;
  $("history").hidden = !history;
  $("tab-work").setAttribute("aria-pressed", String(!history));
  $("tab-history").setAttribute("aria-pressed", String(history));
  if (history) loadClaims();
}

/// The filters as a query string, empty ones left out: the list and the exports share it.
function historyQuery() {
  const params = new URLSearchParams();
  for (const [name, value] of new FormData($("history-filter"))) {
    if (String(value).trim()) params.set(name, String(value).trim());
  }
  const text = params.toString();
  return text ? "?" + text : "";
}

function updateExports() {
  const query = historyQuery();
  $("export-csv").href = "/api/claims/export.csv" + query;
  $("export-xlsx").href = "/api/claims/export.xlsx" + query;
}

async function loadClaims() {
  updateExports();
  $("history-error").hidden = true;
  try {
    renderClaims((await api.json("GET", "/api/claims" + historyQuery())).claims);
  } catch (error) {
    $("history-error").textContent = "无法读取历史报销：" + error.message;
    $("history-error").hidden = false;
  }
}

function claimName(claim) { return claim.claim_no || "（未编号 #" + claim.id + "）"; }

function claimant(claim) { return claim.claimant + (claim.staff_no ? "（" + claim.staff_no + "）" : ""); }

/// Yuan from cents, as the server writes them (255.00).
function yuan(cents) { return (cents / 100).toFixed(2); }

/// A UTC time from the ledger in this computer's time: 2026-11-02 16:30.
function localTime(utc) {
  const date = new Date(utc);
  if (!utc || Number.isNaN(date.getTime())) return utc || "";
  const two = (n) => String(n).padStart(2, "0");
  return date.getFullYear() + "-" + two(date.getMonth() + 1) + "-" + two(date.getDate()) + " " +
    two(date.getHours()) + ":" + two(date.getMinutes());
}

function renderClaims(claims) {
  const body = $("claims").tBodies[0];
  body.replaceChildren();
  $("history-count").textContent = claims.length > 0 ? "共 " + claims.length + " 张报销单" : "没有符合条件的报销单。";
  for (const claim of claims) {
    const tr = el("tr", null, "status-" + claim.status);
    tr.dataset.id = String(claim.id);
    tr.classList.toggle("current", claim.id === openClaim);
    const open = el("button", claimName(claim), "linkish");
    open.type = "button";
    open.title = "查看详情";
    open.addEventListener("click", () => showClaim(claim.id));
    const first = el("td");
    first.appendChild(open);
    tr.appendChild(first);
    tr.appendChild(el("td", claim.submitted_on));
    tr.appendChild(el("td", CLAIM_KINDS[claim.kind] || claim.kind));
    tr.appendChild(el("td", claimant(claim)));
    tr.appendChild(el("td", claim.total, "num"));
    tr.appendChild(el("td", claim.invoice_count, "num"));
    tr.appendChild(el("td", claim.status_label));
    body.appendChild(tr);
  }
}

async function showClaim(id) {
  openClaim = id;
  for (const tr of $("claims").tBodies[0].rows) tr.classList.toggle("current", tr.dataset.id === String(id));
  $("void-result").hidden = true;
  try {
    renderClaim(await api.json("GET", "/api/claims/" + id));
  } catch (error) {
    $("history-error").textContent = "无法读取报销单：" + error.message;
    $("history-error").hidden = false;
  }
}

function renderClaim(detail) {
  const claim = detail.summary;
  $("claim-title").textContent = "报销单 " + claimName(claim);
  const facts = [["状态", claim.status_label], ["日期", claim.submitted_on],
    ["类型", CLAIM_KINDS[claim.kind] || claim.kind], ["报销人", claimant(claim)],
    ["金额", claim.total + " 元"], ["发票数", claim.invoice_count], ["财务系统", claim.portal],
    ["提交时间", localTime(claim.reserved_at)]];
  if (claim.accepted_at) facts.push(["报销时间", localTime(claim.accepted_at)]);
  if (detail.voided) {
    facts.push(["作废原因", detail.voided.reason], ["作废人", detail.voided.by],
      ["作废时间", localTime(detail.voided.at)]);
  }
  if (detail.released) {
    facts.push(["释放原因", detail.released.reason], ["释放时间", localTime(detail.released.at)]);
  }
  const list = $("claim-summary");
  list.replaceChildren();
  for (const [term, value] of facts) {
    list.appendChild(el("dt", term));
    list.appendChild(el("dd", value));
  }
  const body = $("claim-invoices").tBodies[0];
  body.replaceChildren();
  for (const invoice of detail.invoices) {
    const tr = el("tr");
    tr.appendChild(el("td", invoice.number || invoice.key));
    tr.appendChild(el("td", invoice.date));
    tr.appendChild(el("td", yuan(invoice.amount_cents), "num"));
    tr.appendChild(el("td", invoice.seller));
    body.appendChild(tr);
  }
  const accepted = claim.status === "accepted";
  $("void-form").hidden = !accepted || !me.finance;
  if (accepted) {
    $("void-reason").value = "";
    $("void-error").hidden = true;
    $("void-send").disabled = false;
  }
  $("claim-detail").hidden = false;
  showClaimFiles(detail);
}

/// The files of the claim's session, when the session is still here.
async function showClaimFiles(detail) {
  const box = $("claim-files");
  box.hidden = true;
  if (!detail.files_url) return;
  const session = detail.summary.session_id;
  const listing = await api.json("GET", detail.files_url).catch(() => null);
  if (!listing || openClaim !== detail.summary.id) return;
  const list = $("claim-file-list");
  list.replaceChildren();
  if (listing.files.length === 0) list.appendChild(el("li", "（没有文件）", "muted"));
  for (const file of listing.files) {
    const item = el("li");
    const link = el("a", file.name);
    link.href = "/api/download/" + encodeURIComponent(session) + "/" + encodeURIComponent(file.name);
    item.appendChild(link);
    item.appendChild(el("span", " " + sizeText(file.size), "muted"));
    list.appendChild(item);
  }
  $("claim-session").href = "/#s=" + encodeURIComponent(session);
  box.hidden = false;
}

async function voidClaim(e) {
  e.preventDefault();
  const id = openClaim;
  if (id === null) return;
  $("void-error").hidden = true;
  $("void-send").disabled = true;
  try {
    await api.json("POST", "/api/claims/" + id + "/void", { reason: $("void-reason").value, by: $("void-by").value });
  } catch (error) {
    $("void-error").textContent = error.message;
    $("void-error").hidden = false;
    $("void-send").disabled = false;
    $("void-reason").focus();
    return;
  }
  await Promise.all([showClaim(id), loadClaims()]);
  $("void-result").textContent = "已作废，其中的发票可以再次报销。";
  $("void-result").hidden = false;
}

// ---- wiring ----

function wire() {
  const drop = $("drop");
  $("file-input").addEventListener("change", (e) => { uploadFiles(Array.from(e.target.files)); e.target.value = ""; });
  drop.addEventListener("dragover", (e) => { e.preventDefault(); drop.classList.add("over"); });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", (e) => {
    e.preventDefault();
    drop.classList.remove("over");
    uploadFiles(Array.from(e.dataTransfer.files));
  });
  $("run-agent").addEventListener("click", () => start("/api/agent/process/", configBody()));
  $("run-extract").addEventListener("click", () => start("/api/process/", configBody()));
  $("supplement-form").addEventListener("submit", (e) => {
    e.preventDefault();
    start("/api/agent/user-supplement/", { text: $("supplement-text").value });
  });
  $("supplement-files").addEventListener("change", async (e) => {
    const names = await uploadAll("/api/upload/" + sessionId, Array.from(e.target.files), $("uploads"));
    e.target.value = "";
    await refreshFiles();
    if (names.length > 0) start("/api/agent/supplement/", { files: names });
  });
  $("force-submit").addEventListener("click", () => {
    if (confirm("跳过校验，直接把当前表格提交到财务系统？")) start("/api/agent/force-submit/", {});
  });
  $("add-row").addEventListener("click", () => {
    const row = {};
    for (const field of table.fields) row[field] = "";
    row["序号"] = String(table.rows.length + 1);
    table.rows.push(row);
    renderTable();
  });
  $("save").addEventListener("click", saveTable);
  $("challenge").addEventListener("submit", answerChallenge);
  $("tab-work").addEventListener("click", () => showView(false));
  $("tab-history").addEventListener("click", () => showView(true));
  $("history-filter").addEventListener("submit", (e) => { e.preventDefault(); loadClaims(); });
  $("history-filter").addEventListener("input", updateExports);
  $("void-form").addEventListener("submit", voidClaim);
  $("qr-renew").addEventListener("click", showPhoneLink);
  $("logout").addEventListener("click", async () => {
    await api.json("POST", "/api/auth/logout").catch(() => {});
    location.assign("/login");
  });
  $("submit").addEventListener("click", async () => {
    await saveTable();
    start("/api/submit-financial/", undefined);
  });
}

async function main() {
  wire();
  api.onSignedOut = () => location.assign("/login");
  try {
    if (!(await showUser())) return;
  } catch (_) { /* an older server: no sign-in */ }
  try {
    await startSession();
  } catch (error) {
    $("session-id").textContent = "无法创建会话：" + error.message;
    return;
  }
  // A new session has no table yet: it is asked for when a run ends.
  await Promise.all([refreshFiles(), loadConfig().catch(() => {}), restored ? restoreLastRun() : null,
    restored ? restoreChallenge() : null]);
  // The phone's uploads appear here without a reload.
  setInterval(refreshFiles, 2000);
}

main();
