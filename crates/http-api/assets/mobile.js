// The phone page: take a photo or choose files, upload each with progress, list what arrived.
"use strict";

const sessionId = decodeURIComponent(location.pathname.split("/").pop());
// With sign-in on, the QR code's link carries a short-lived upload token for this session.
const token = new URLSearchParams(location.search).get("t");
const tokenQuery = token ? "?t=" + encodeURIComponent(token) : "";

async function refresh() {
  try {
    const listing = await api.json("GET", "/api/files/" + sessionId + tokenQuery);
    const list = document.getElementById("files");
    list.replaceChildren();
    for (const file of listing.files) {
      list.appendChild(el("li", file.name + "（" + sizeText(file.size) + "）"));
    }
    document.getElementById("files-empty").hidden = listing.files.length > 0;
  } catch (error) {
    // An expired or refused link says so; a passing network hiccup waits for the next try.
    if (!/网络/.test(error.message)) document.getElementById("files-empty").textContent = error.message;
  }
}

for (const id of ["camera", "pick"]) {
  document.getElementById(id).addEventListener("change", async (e) => {
    await uploadAll("/api/mobile-upload/" + sessionId + tokenQuery, Array.from(e.target.files), document.getElementById("uploads"));
    e.target.value = "";
    await refresh();
  });
}

refresh();
