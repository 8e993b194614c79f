// The sign-in page: posts the account and password, then opens the desktop page.
"use strict";

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
