// The sign-in page: posts the account and password, then opens the desktop page. Where the
// institution's sign-on signs people in (proxy mode) or nobody signs in, it says so instead.
"use strict";

api.json("GET", "/api/auth/me").then((me) => {
  if (me.signed_in || me.mode === "none") location.replace("/");
  else if (me.mode === "proxy") {
    document.getElementById("login-form").hidden = true;
    const error = document.getElementById("login-error");
    error.textContent = "本服务通过单位统一身份认证登录，请从单位门户重新打开本页面。";
    error.hidden = false;
    document.getElementById("login-form").after(error);
  }
}).catch(() => { /* the form stays */ });

document.getElementById("login-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const error = document.getElementById("login-error");
  const button = document.getElementById("login-submit");
  error.hidden = true;
  button.disabled = true;
  try {
    await api.json("POST", "/api/auth/login", {
      username: document.getElementById("login-username").value,
      password: document.getElementById("login-password").value,
    });
    location.replace("/");
  } catch (failure) {
    error.textContent = failure.message;
    error.hidden = false;
    document.getElementById("login-password").value = "";
  } finally {
    button.disabled = false;
  }
});
