// Optional: a Copy button for the one-time key. Without JavaScript the key is
// still shown in a read-only field to select and copy by hand.
document.querySelectorAll("button[data-copy]").forEach(function (button) {
  var field = document.getElementById(button.getAttribute("data-copy"));
  var done = document.querySelector('[data-copied-for="' + field.id + '"]');
  button.hidden = false;
  button.addEventListener("click", function () {
    field.select();
    var shown = function () { if (done) { done.hidden = false; } button.textContent = "Copied"; };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(field.value).then(shown, function () { document.execCommand("copy"); shown(); });
    } else {
      document.execCommand("copy");
      shown();
    }
  });
});
