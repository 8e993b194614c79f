// Login page: a click on the captcha image draws a new one (the old answer stops counting).
(function () {
  'use strict';
  var img = document.getElementById('captchaImg');
  if (!img) {
    return;
  }
  img.addEventListener('click', function () {
    img.src = '/captcha.png?t=' + Date.now();
    var input = document.getElementById('captcha');
    if (input) {
      input.value = '';
      input.focus();
    }
  });
})();
