// The phone page: take a photo or choose files, upload each with progress, list what arrived.
"use strict";

const sessionId = decodeURIComponent(location.pathname.split("/").pop());

async function refresh() {
  try {
    const listing = await api.json("GET", "/api/files/" + sessionId);
    const list = document.getElementById("files");
    list.replaceChildren();
    for (const file of listing.files) {
      list.appendChild(el("li", file.name + "（" + sizeText(file.size) + "）"));
    }
    document.getElementById("files-empty").hidden = listing.files.length > 0;
  } catch (_) { /* next time */ }
}

for (const id of ["camera", "pick"]) {
  document.getElementById(id).addEventListener("change", async (e) => {
    await uploadAll("/api/mobile-upload/" + sessionId, Array.from(e.target.files), document.getElementById("uploads"));
    e.target.value = "";
    await refresh();
  });
}

refresh();
